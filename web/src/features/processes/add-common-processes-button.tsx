import { Button } from '@chakra-ui/react';
import { useAddCommonProcesses } from './use-add-common-processes';

/** 'Agregar catálogo común', beside 'Registrar proceso'. */
export function AddCommonProcessesButton() {
  const addCommon = useAddCommonProcesses();
  return (
    <Button variant="outline" colorPalette="blue" onClick={() => void addCommon()}>
      Agregar catálogo común
    </Button>
  );
}
