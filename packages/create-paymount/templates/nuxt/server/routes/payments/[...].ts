// paymount's routes under /payments: checkout, wallet, status and the webhook.
export default payments;
