// The shop's own pages are not what these tests are about: an empty index.
export default function Home() {
  return null;
}
