/**
 * The look of the header's buttons on its dark blue bar (`app-header.tsx`, `nav-menu.tsx`,
 * `compact-nav-menu.tsx`): white text and a white focus ring (Chakra's default ring is not
 * seen on blue.800), blue.700 under the pointer and while a menu is open.
 */
export const HEADER_BUTTON_STYLE = {
  color: 'white',
  focusRingColor: 'white',
  _hover: { bg: 'blue.700' },
  _expanded: { bg: 'blue.700' },
} as const;
