// The order page of the Chromium tests: <WalletButton /> inside StrictMode, showing what it reports.
import { WalletButton, type WalletResult } from '@paymount/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

const { orderId = '', sandboxUrl: sandbox = '' } = document.body.dataset;

function Order() {
  const [ready, setReady] = useState<string[]>([]);
  const [results, setResults] = useState<WalletResult[]>([]);
  const [shown, setShown] = useState(true);
  return (
    <>
      {shown && (
        <WalletButton
          id="wallet"
          mount="/payments"
          orderId={orderId}
          wallet={{ sandbox }}
          onReady={(answer) => setReady((all) => [...all, JSON.stringify(answer)])}
          onResult={(result) => setResults((all) => [...all, result])}
        />
      )}
      <button id="remove" type="button" onClick={() => setShown(false)}>
        Remove the wallet button
      </button>
      <output id="ready">{JSON.stringify(ready)}</output>
      <output id="results">{JSON.stringify(results)}</output>
    </>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Order />
    </StrictMode>,
  );
}
