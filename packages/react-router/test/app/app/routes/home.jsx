export default function Home() {
  return <h1>Shop</h1>;
}
