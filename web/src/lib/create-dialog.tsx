/**
 * The Create Insight dialog is contributed by a plugin to the slot `shell.createDialog`; the
 * shell's search/add buttons open it. The component gets `onClose` and any props given to open().
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Slot, useSlot } from './plugins.tsx';
import { useAuth } from './auth.tsx';
import { signInPath } from './next-path.ts';

export const CREATE_DIALOG_SLOT = 'shell.createDialog';

export interface CreateDialogState {
  isOpen: boolean;
  /** whether an enabled plugin provides the dialog */
  available: boolean;
  /** opens it (signed-out visitors are sent to /auth); props go to the dialog component */
  open: (props?: Record<string, unknown>) => void;
  close: () => void;
}

const Ctx = createContext<CreateDialogState>({ isOpen: false, available: false, open: () => {}, close: () => {} });

export function CreateDialogProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ open: boolean; props: Record<string, unknown> }>({ open: false, props: {} });
  const { user } = useAuth();
  const navigate = useNavigate();
  const available = useSlot(CREATE_DIALOG_SLOT).length > 0;
  const open = useCallback(
    (props: Record<string, unknown> = {}) => {
      if (!user) {
        navigate(signInPath());
        return;
      }
      setState({ open: true, props });
    },
    [user, navigate],
  );
  const close = useCallback(() => setState({ open: false, props: {} }), []);
  const value = useMemo(() => ({ isOpen: state.open, available, open, close }), [state.open, available, open, close]);
  return (
    <Ctx.Provider value={value}>
      {children}
      {state.open && <Slot name={CREATE_DIALOG_SLOT} {...state.props} open onClose={close} />}
    </Ctx.Provider>
  );
}

/** `const { open } = useCreateDialog(); open({ museum })` */
export function useCreateDialog(): CreateDialogState {
  return useContext(Ctx);
}
