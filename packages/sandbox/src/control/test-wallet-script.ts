/**
 * `GET /sandbox/test-wallet.js`: a browser stand-in for the wallet API. It
 * exposes `window.PaymountTestWallet.loadPaymentData(paymentDataRequest,
 * testOptions?)`, which checks the request as docs/service-contract.md#wallet wants it built
 * (PAYMENT_GATEWAY tokenization with gateway and gatewayMerchantId,
 * CRYPTOGRAM_3DS only), mints a token through this sandbox and resolves the
 * wallet's response shape. The token is handed to the caller only: never
 * logged, never stored.
 */
export function testWalletScript(sandboxUrl: string): string {
  return `(function () {
  'use strict';
  var SANDBOX_URL = ${JSON.stringify(sandboxUrl)};
  function developerError(message) {
    return Promise.reject({ statusCode: 'DEVELOPER_ERROR', statusMessage: message });
  }
  function cardMethodOf(request) {
    if (!request || request.apiVersion !== 2) return 'apiVersion must be 2';
    var methods = request.allowedPaymentMethods;
    if (!Array.isArray(methods) || methods.length === 0) return 'allowedPaymentMethods must be a non-empty array';
    var card = methods.filter(function (m) { return m && m.type === 'CARD'; })[0];
    if (!card) return 'allowedPaymentMethods must include a CARD method';
    var p = card.parameters || {};
    if (!Array.isArray(p.allowedAuthMethods) || p.allowedAuthMethods.length !== 1 || p.allowedAuthMethods[0] !== 'CRYPTOGRAM_3DS') {
      return 'allowedAuthMethods must be exactly ["CRYPTOGRAM_3DS"] (PAN_ONLY is not supported)';
    }
    if (!Array.isArray(p.allowedCardNetworks) || p.allowedCardNetworks.length === 0) return 'allowedCardNetworks must be a non-empty array';
    return card;
  }
  // A readiness request carries no tokenization or transaction details; a payment data request must.
  function payableCardMethodOf(request) {
    var card = cardMethodOf(request);
    if (typeof card === 'string') return card;
    var t = card.tokenizationSpecification || {};
    var tp = t.parameters || {};
    if (t.type !== 'PAYMENT_GATEWAY') return 'tokenizationSpecification.type must be PAYMENT_GATEWAY';
    if (typeof tp.gateway !== 'string' || tp.gateway === '') return 'tokenizationSpecification.parameters.gateway is required';
    if (typeof tp.gatewayMerchantId !== 'string' || tp.gatewayMerchantId === '') return 'tokenizationSpecification.parameters.gatewayMerchantId is required';
    var info = request.transactionInfo || {};
    if (typeof info.totalPrice !== 'string' || typeof info.currencyCode !== 'string') return 'transactionInfo.totalPrice and currencyCode are required';
    return card;
  }
  function loadPaymentData(request, testOptions) {
    var card = payableCardMethodOf(request);
    if (typeof card === 'string') return developerError(card);
    var tp = card.tokenizationSpecification.parameters;
    var network = card.parameters.allowedCardNetworks[0];
    return fetch(SANDBOX_URL + '/sandbox/wallet-token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        gateway: tp.gateway,
        gatewayMerchantId: tp.gatewayMerchantId,
        cardNetwork: network,
        additional3dsRequired: Boolean(testOptions && testOptions.additional3dsRequired)
      })
    }).then(function (response) {
      if (!response.ok) return developerError('the sandbox refused to mint a token (' + response.status + ')');
      return response.json().then(function (minted) {
        return {
          apiVersion: 2,
          apiVersionMinor: 0,
          paymentMethodData: {
            type: 'CARD',
            description: network + ' test card',
            info: { cardNetwork: network, cardDetails: '1111' },
            tokenizationData: { type: 'PAYMENT_GATEWAY', token: minted.token }
          }
        };
      });
    });
  }
  window.PaymountTestWallet = Object.freeze({
    isReadyToPay: function (request) {
      var card = cardMethodOf(request);
      return typeof card === 'string' ? developerError(card) : Promise.resolve({ result: true });
    },
    loadPaymentData: loadPaymentData
  });
})();
`;
}
