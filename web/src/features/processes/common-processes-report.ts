/** The report after 'Agregar catálogo común': 'Se agregaron N procesos (M ya existían).'. */
export function commonProcessesReport(added: number, skipped: number): string {
  return `Se agregaron ${added} procesos (${skipped} ya existían).`;
}
