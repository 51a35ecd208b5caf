import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { NetworkSiteInfo } from '@concurso/shared';
import { settle, stubApi } from '../../api/queries/fake-api.test-support';
import { appSystem } from '../../ui/theme';
import { AllowedSitesField } from './allowed-sites-field';
import { allowedSitesNotices } from './allowed-sites-notices';
import { networkSitesInfoQuery } from './use-allowed-sites-notices';

const NOTICE = 'omegaup.com comparte direcciones con otros sitios: se filtrará por nombre';

/** What the server answers for omegaup.com (on Cloudflare) and a name on a private address. */
const INFO: NetworkSiteInfo[] = [
  { host: 'omegaup.com', addresses: ['104.16.132.229'], shared: true, provider: 'Cloudflare' },
  { host: 'juez.local.mx', addresses: ['10.0.7.80'], shared: false, provider: null },
];

/**
 * The notices «Sitios permitidos» shows, as the contest form draws it with `text` in its text area
 * (the texts of the paragraphs in its notices' region).
 */
const noticesShown = (client: QueryClient, text: string) => {
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ChakraProvider value={appSystem}>
        <AllowedSitesField
          registration={{
            name: 'allowed_sites',
            onChange: async () => undefined,
            onBlur: async () => undefined,
            ref: () => undefined,
          }}
          text={text}
        />
      </ChakraProvider>
    </QueryClientProvider>,
  );
  const region = /data-testid="allowed-sites-notices">(.*?)<\/div>/.exec(html);
  expect(region, 'the notices region').not.toBeNull();
  return [...region![1]!.matchAll(/<p[^>]*>([^<]*)<\/p>/g)].map((match) => match[1]);
};

afterEach(() => vi.unstubAllGlobals());

describe('the notices under «Sitios permitidos»', () => {
  it('name each host name on shared addresses, in Spanish with the name, and no other', () => {
    expect(allowedSitesNotices(INFO)).toEqual([NOTICE]);
    expect(allowedSitesNotices([INFO[1]!])).toEqual([]);
  });

  it('show under the field once the server said so', async () => {
    const api = stubApi();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // What the form asks for the list's host names: the shared route, with the names as its body.
    const answer = client.fetchQuery(networkSitesInfoQuery(['omegaup.com', 'juez.local.mx']));
    await settle();
    const request = api.requests.find((held) => held.path.endsWith('/api/networkSitesInfo'));
    expect(request, api.paths().join(', ')).toBeDefined();
    const [, init] = vi.mocked(fetch).mock.calls.at(-1)!;
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ hosts: ['omegaup.com', 'juez.local.mx'] });
    request!.answer({ success: true, data: INFO, message: '' });
    await answer;

    expect(noticesShown(client, 'omegaup.com\njuez.local.mx\n10.0.0.0/8')).toEqual([NOTICE]);
    // The same names written another way (capitals, a port) are the same list.
    expect(noticesShown(client, 'OmegaUp.com:443\njuez.local.mx')).toEqual([NOTICE]);
  });

  it('are none while the list has no host name, and nothing is asked', () => {
    const api = stubApi();
    const client = new QueryClient();
    expect(noticesShown(client, '10.0.0.0/8\n200.1.2.3')).toEqual([]);
    expect(api.requests).toEqual([]);
  });
});
