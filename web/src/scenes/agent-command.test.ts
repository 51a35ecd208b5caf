import { describe, expect, it } from 'vitest';
import { agentCommand } from './agent-command';

describe('agentCommand (DESIGN.md section 6)', () => {
  it('names this site as the server and the team key', () => {
    expect(agentCommand('http://192.168.1.10:3000', 'abc123')).toBe(
      'npm run agent -- --server http://192.168.1.10:3000 --key abc123',
    );
  });
});
