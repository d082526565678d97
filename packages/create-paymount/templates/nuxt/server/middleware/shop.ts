// No request is answered before the shop has started: its pages and forms run on it.
export default defineEventHandler(async () => {
  await useShop();
});
