import { describe, expect, it } from 'vitest';
import { agentBadgeText, isAgentAlarm } from './board.js';

describe("the boards' agent badge", () => {
  it('names each state, a stop not resumed within the window apart from a plain stop', () => {
    expect(agentBadgeText({ agent_online: true, agent_alert: null })).toBe('Agente en línea');
    expect(agentBadgeText({ agent_online: false, agent_alert: 'sin_senal' })).toBe('Agente sin señal');
    expect(agentBadgeText({ agent_online: false, agent_alert: 'sin_reanudar' })).toBe(
      'Agente detenido sin reanudar',
    );
    expect(agentBadgeText({ agent_online: false, agent_alert: 'detenido' })).toBe('Agente detenido');
    expect(agentBadgeText({ agent_online: false, agent_alert: null })).toBe('Agente sin conexión');
  });

  it('counts a silence and a stop not resumed as alarms, a plain stop not', () => {
    expect(['sin_senal', 'sin_reanudar', 'detenido', null].map(isAgentAlarm)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
