import { useId, useState } from 'react';
import { Modal, ROLES, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { adminChangeUserRole } from '../../../../web/src/api/generated/admin.ts';
import type { AdminUser } from './UsersTab.tsx';
import { failToast, fullName, okToast, refreshAdmin } from '../lib.ts';

export function ChangeRoleDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [role, setRole] = useState(user.role);
  const save = useMutation(() => adminChangeUserRole({ body: { userId: user.id, role } }), { retries: 0 });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      await save.trigger();
      okToast(t('toast.success'), t('users.roleChanged'));
      await refreshAdmin('/api/admin/users', '/api/admin/actions', '/api/admin/museum-managers');
      onClose();
    } catch (err) {
      failToast(err, t('users.roleFailed'));
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('users.changeRoleTitle')}
      size="small"
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button is-primary${save.isPending ? ' is-loading' : ''}`} disabled={save.isPending || role === user.role}>
            {t('users.updateRole')}
          </button>
        </div>
      }
    >
      <form id={`${id}-form`} onSubmit={submit}>
        <p className="mb-3">{t('users.changeRoleFor', { name: fullName(user) || user.username, username: user.username })}</p>
        <div className="field">
          <label className="label" htmlFor={`${id}-role`}>
            {t('users.role')}
          </label>
          <div className="select is-fullwidth">
            <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r.replace(/\s/g, '')}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </form>
    </Modal>
  );
}
