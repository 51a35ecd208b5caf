import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Center, Field, Heading, Input, Stack, Text, chakra } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '@concurso/shared';
import { fetchMe, login } from '../../api/auth-api';
import { clearToken, setToken } from '../../api/token-storage';
import { homePathFor } from '../../app/paths';
import { MessageDialog } from '../../ui/dialog/message-dialog';
import { useSessionStore } from '../../stores/session-store';
import { describeLoginError, type LoginErrorView } from './login-error';

type FieldErrors = LoginErrorView['fieldErrors'];

/**
 * Login (/): username and password, 'Iniciar Sesión'. On success the token is stored, the user is
 * fetched and routed by type (docs/spec.md section 4): 2 to /homeJuez, anything else to /home. After a
 * session ended elsewhere it says so ('Su sesión terminó. Inicie sesión de nuevo.') until the next login.
 */
export function LoginScene() {
  const navigate = useNavigate();
  const sessionEnded = useSessionStore((state) => state.ended);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<LoginErrorView | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const missing: FieldErrors = {
      username: username.trim() ? undefined : MESSAGES.required,
      password: password ? undefined : MESSAGES.required,
    };
    setFieldErrors(missing);
    if (missing.username || missing.password) return;

    setSubmitting(true);
    try {
      const answer = await login({ username: username.trim(), password });
      setToken(answer.access_token);
      const me = await fetchMe(undefined, { signingIn: true });
      useSessionStore.getState().setUser(me);
      navigate(homePathFor(me.types_users_id), { replace: true });
    } catch (error) {
      console.error('Inicio de sesión fallido', error);
      // A token whose user could not be read is not a session.
      clearToken();
      const view = describeLoginError(error);
      setFieldErrors(view.fieldErrors);
      setFailure(view);
      setPassword('');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Center minH="100vh" bg="gray.100" px="4">
      <Card.Root as="main" w="full" maxW="sm" boxShadow="lg">
        <Card.Header>
          <Heading as="h1" size="xl" textAlign="center">
            Concurso de Programación
          </Heading>
          <Text color="fg.muted" textAlign="center">
            Administración en vivo del concurso
          </Text>
        </Card.Header>
        <Card.Body>
          {sessionEnded ? (
            <Alert.Root status="warning" mb="4" data-testid="session-ended">
              <Alert.Indicator />
              <Alert.Title>{MESSAGES.sessionEnded}</Alert.Title>
            </Alert.Root>
          ) : null}
          <chakra.form onSubmit={(event) => void handleSubmit(event)} noValidate>
            <Stack gap="4">
              <Field.Root invalid={Boolean(fieldErrors.username)}>
                <Field.Label>Usuario</Field.Label>
                <Input
                  name="username"
                  autoComplete="username"
                  autoFocus
                  value={username}
                  onChange={(event) => setUsername(event.target.value)}
                />
                <Field.ErrorText>{fieldErrors.username}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={Boolean(fieldErrors.password)}>
                <Field.Label>Contraseña</Field.Label>
                <Input
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
                <Field.ErrorText>{fieldErrors.password}</Field.ErrorText>
              </Field.Root>
              <Button type="submit" colorPalette="blue" loading={submitting} loadingText="Iniciar Sesión">
                Iniciar Sesión
              </Button>
            </Stack>
          </chakra.form>
        </Card.Body>
      </Card.Root>

      <MessageDialog
        open={failure !== null}
        title={failure?.title ?? ''}
        message={failure?.message ?? ''}
        buttonLabel={failure?.buttonLabel}
        onClose={() => setFailure(null)}
      />
    </Center>
  );
}
