import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** rendered instead of the children after an error */
  fallback?: ReactNode | ((error: Error, reset: () => void) => ReactNode);
  /** when this value changes, the boundary resets (e.g. the pathname) */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  key: unknown;
}

/** Keeps one failing page or slot contribution from taking the whole app down. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.key) return { error: null, key: props.resetKey };
    return null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Curio: a component failed', error, info.componentStack);
  }

  reset = () => this.setState({ error: null });

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const fb = this.props.fallback;
    if (typeof fb === 'function') return fb(error, this.reset);
    return fb ?? null;
  }
}
