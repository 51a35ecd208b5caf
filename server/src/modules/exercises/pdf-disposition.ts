/**
 * `Content-Disposition: inline` with a file's own name (issue 14, 'Ver PDF': the browser saves the PDF
 * under the name it was uploaded with), as RFC 6266 / RFC 8187 write a UTF-8 name: `filename*=UTF-8''`
 * and the name percent-encoded. `encodeURIComponent` leaves `'()*!` as they are, but RFC 8187's
 * attr-char does not allow `'()*`, so they are encoded too ('Problema (1).pdf' stays one name).
 */
export function inlineDisposition(name: string): string {
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename*=UTF-8''${encoded}`;
}
