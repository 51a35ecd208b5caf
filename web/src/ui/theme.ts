import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/**
 * The app's Chakra UI system: Chakra's defaults with the solid green and teal one shade darker (700
 * instead of 600). White text on green.600 (3.3:1) and teal.600 (3.7:1) fails WCAG AA's 4.5:1 for the
 * small text of the row buttons and badges ('Desbloquear', 'Ver procesos', 'Activo'); axe-core reports
 * it as serious (e2e/responsive.test.ts runs axe-core on every screen). The 700 shades give 5.0:1 and 5.5:1.
 */
const config = defineConfig({
  theme: {
    semanticTokens: {
      colors: {
        green: { solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.700}' } } },
        teal: { solid: { value: { _light: '{colors.teal.700}', _dark: '{colors.teal.700}' } } },
      },
    },
  },
});

/** The system given to `ChakraProvider` (`main.tsx`). */
export const appSystem = createSystem(defaultConfig, config);
