import { createToaster } from '@chakra-ui/react';

/** The app's toast queue; {@link AppToaster} renders it. Call `toaster.create({...})` anywhere. */
export const toaster = createToaster({
  placement: 'bottom-end',
  pauseOnPageIdle: true,
});
