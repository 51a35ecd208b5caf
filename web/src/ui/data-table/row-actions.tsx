import type { ReactNode } from 'react';
import { Button, HStack } from '@chakra-ui/react';

/**
 * The buttons of one row's ACCIONES cell. Below 768 px they stay on one line (rows stay
 * compact; the table scrolls sideways in its box instead); wider, they wrap as before.
 */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <HStack gap="1" wrap={{ base: 'nowrap', md: 'wrap' }}>
      {children}
    </HStack>
  );
}

/** Props of {@link RowButton}. */
export interface RowButtonProps {
  /** The visible text and accessible name ('Editar', 'Eliminar', 'Ver procesos'…). */
  label: string;
  onClick: () => void;
  palette?: 'blue' | 'red' | 'gray' | 'teal';
}

/** One row action button. */
export function RowButton({ label, onClick, palette = 'gray' }: RowButtonProps) {
  return (
    <Button
      size="xs"
      variant={palette === 'gray' ? 'outline' : 'solid'}
      colorPalette={palette}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

/** The 'Editar' and 'Eliminar' buttons every catalogue row has. */
export function EditDeleteButtons({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <RowButton label="Editar" palette="blue" onClick={onEdit} />
      <RowButton label="Eliminar" palette="red" onClick={onDelete} />
    </>
  );
}
