import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { LoginRequest, TokenLoginRequest } from '../../../../openapi/schemas/auth.ts';
import { Field } from '../../components/form/Field.tsx';
import { issuesByPath } from '../../components/form/useZodForm.ts';
import { useLogin, useTokenLogin } from '../../data/auth/mutations.ts';
import { useSession } from '../../data/auth/queries.ts';
import { messageOf } from '../../data/client.ts';
import { AuthCard } from './AuthCard.tsx';

/** Only a path of this console is a place to return to after signing in. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/my') && !next.startsWith('//') ? next : '/my';
}

/**
 * /login (username and password) and /setplex-login (a personal API token): the same card.
 * The error area shows the server's own message (wrong password, disabled, throttled).
 */
export function LoginPage({ mode }: { mode: 'password' | 'token' }) {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const session = useSession();
  const login = useLogin();
  const tokenLogin = useTokenLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const errorId = useId();
  const first = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Sign in · Mediaplane';
    first.current?.focus();
  }, [mode]);

  if (session.data) return <Navigate to={next} replace />;

  const errors = mode === 'password' ? issuesByPath(LoginRequest, { username, password }) : issuesByPath(TokenLoginRequest, { token });
  const pending = login.isPending || tokenLogin.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0 || pending) return;
    setServerError(undefined);
    try {
      if (mode === 'password') await login.mutateAsync({ username, password });
      else await tokenLogin.mutateAsync({ token });
      navigate(next, { replace: true });
    } catch (error) {
      setServerError(messageOf(error));
      // A fresh try: the emptied password is not a mistake to point at.
      setSubmitted(false);
      if (mode === 'password') setPassword('');
    }
  }

  const shown = (field: string) => (submitted ? errors[field] : undefined);

  return (
    <AuthCard
      title="Sign in"
      footer={
        mode === 'password' ? (
          <Link to={`/setplex-login${params.toString() ? `?${params}` : ''}`}>Sign in with a personal API token</Link>
        ) : (
          <Link to={`/login${params.toString() ? `?${params}` : ''}`}>Sign in with username and password</Link>
        )
      }
    >
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate aria-describedby={serverError ? errorId : undefined}>
        {mode === 'password' ? (
          <>
            <Field label="Username" error={shown('username')}>
              <input ref={first} name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
            </Field>
            <Field label="Password" error={shown('password')}>
              <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
          </>
        ) : (
          <Field label="API token" error={shown('token')} hint="A personal API token of your user (mp_…).">
            <input ref={first} name="token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
          </Field>
        )}
        <div id={errorId} className="auth-error" role="alert" aria-live="assertive" data-testid="login-error">
          {serverError}
        </div>
        <button type="submit" className="button button-block" disabled={pending} aria-busy={pending || undefined}>
          {pending && <span className="spinner" aria-hidden="true" />}
          Sign in
        </button>
      </form>
    </AuthCard>
  );
}
