/**
 * Puts text on the clipboard. The Clipboard API only exists on secure origins (https, localhost); the
 * lab server is often plain http on a LAN address, so a hidden textarea and `execCommand('copy')` stand in.
 */
export async function copyToClipboard(text: string): Promise<void> {
  if (window.isSecureContext && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission refused: try the old way below.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('No se pudo copiar al portapapeles');
}
