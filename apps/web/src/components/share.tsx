import { useEffect, useState } from 'react';

/** Sharing a link: copy it, or show it as a QR code. */

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        const ok = () => {
          setDone(true);
          setTimeout(() => setDone(false), 1500);
        };
        if (navigator.clipboard) navigator.clipboard.writeText(text).then(ok, () => setDone(false));
      }}
      aria-label={label}
    >
      {done ? '✓ Copied' : 'Copy'}
    </button>
  );
}

export function QrCode({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // loaded when a QR code is first shown: the GM's, never in a player's first load
    import('qrcode')
      .then((q) => q.default.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then(
        (s) => live && setSvg(s),
        () => live && setSvg(null),
      );
    return () => {
      live = false;
    };
  }, [text]);
  if (!svg) return null;
  return <img className="qr" alt={label} src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} width={160} height={160} />;
}
