import { describe, expect, it } from 'vitest';
import { agentCommand } from './agent-command';

describe('agentCommand (DESIGN.md section 6)', () => {
  it('saves the key to an owner-only file, then runs the agent with --key-file and this site as server', () => {
    expect(agentCommand('http://192.168.1.10:3000', 'ag_abc123')).toBe(
      "(umask 077; printf '%s' 'ag_abc123' > ~/concurso-agent.key) && " +
        'npm run agent -- --server http://192.168.1.10:3000 --key-file ~/concurso-agent.key',
    );
  });

  it('never puts the key on the agent command line, and quotes it for the shell', () => {
    const command = agentCommand('http://srv', "ag_it's");
    expect(command).toContain(`printf '%s' 'ag_it'\\''s' >`);
    expect(command.slice(command.indexOf('npm run agent'))).not.toContain('ag_it');
  });
});
