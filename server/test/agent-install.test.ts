import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS } from '@concurso/shared';
import {
  callAs,
  createContest,
  createTeam,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';
import { ConfigError, loadConfig } from '../src/config.js';

/**
 * `PUBLIC_URL`: the address the lab machines reach the server at, answered with each new agent key so
 * the key dialog's install commands carry it instead of the admin's browser address (README,
 * «Configuración»).
 */
describe('PUBLIC_URL in the agent install commands', () => {
  it('is read as an origin; an address with a path or another scheme stops the start with one line', () => {
    expect(loadConfig({ PUBLIC_URL: ' http://10.0.0.5:3000/ ' }).publicUrl).toBe('http://10.0.0.5:3000');
    expect(loadConfig({ PUBLIC_URL: 'https://concurso.example.edu' }).publicUrl).toBe(
      'https://concurso.example.edu',
    );
    expect(loadConfig({}).publicUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: '' }).publicUrl).toBeUndefined();
    for (const bad of [
      'http://10.0.0.5:3000/concurso',
      'ftp://10.0.0.5',
      '10.0.0.5:3000',
      'http://a:b@srv',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow(/^Configuración no válida: PUBLIC_URL debe ser/);
    }
  });

  describe('answered with a new key, to administrators only', () => {
    let server: TestServer;
    let tokens: { admin: string; judge: string };
    let teamId: number;

    beforeAll(async () => {
      server = await startTestServer({ publicUrl: 'http://10.0.0.5:3000' });
      tokens = await signInStaff(server, 'install');
      const contest = await createContest(server.orm);
      teamId = (await createTeam(server.orm, contest.id, LEVELS.basico, 'Los Instaladores')).id;
    });
    afterAll(async () => server?.close());

    it('gives the administrator the key and the address for the lab machines', async () => {
      const { status, body } = await callAs(server.app, tokens.admin, `/api/generateAgentKey/${teamId}`, {});
      expect(status).toBe(200);
      expect(body.data).toEqual({
        key: expect.stringMatching(/^ag_/),
        teams_id: teamId,
        public_url: 'http://10.0.0.5:3000',
      });
    });

    it('refuses a judge and an anonymous caller', async () => {
      const judge = await callAs(server.app, tokens.judge, `/api/generateAgentKey/${teamId}`, {});
      expect(judge.status).toBe(403);
      expect(JSON.stringify(judge.body)).not.toContain('10.0.0.5');
      const anonymous = await server.app.inject({ method: 'POST', url: `/api/generateAgentKey/${teamId}` });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.body).not.toContain('10.0.0.5');
    });
  });
});
