declare module 'virtual:curio-validators' {
  import type { ValidateLike } from './components/SchemaForm.tsx';
  /** ids of every registered schema (schemas/ and plugins/<id>/schemas/) */
  export const validatorIds: string[];
  /** the build-time compiled ajv validator of a schema `$id`, or undefined */
  export function loadValidator(id: string): Promise<ValidateLike | undefined>;
}
