import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider, Table } from '@chakra-ui/react';
import { boardTeam } from '@concurso/shared/test-support/board-team';
import { appSystem } from '../../ui/theme';
import { BoardRow } from './board-row';

const rowHtml = (online: boolean) =>
  renderToStaticMarkup(
    <ChakraProvider value={appSystem}>
      <Table.Root>
        <Table.Body>
          <BoardRow team={boardTeam(7, { agent_online: online })} onToggle={() => {}} onHistory={() => {}} />
        </Table.Body>
      </Table.Root>
    </ChakraProvider>,
  );

describe("a board row's «Ver pantalla»", () => {
  it("is offered while the team's agent is online, beside «Historial»", () => {
    const html = rowHtml(true);
    expect(html).toMatch(/data-testid="view-screen-7"[^>]*>Ver pantalla</);
    expect(html.indexOf('Historial')).toBeLessThan(html.indexOf('Ver pantalla'));
  });

  it('is not offered when no machine of the team is connected', () => {
    expect(rowHtml(false)).not.toContain('Ver pantalla');
  });
});
