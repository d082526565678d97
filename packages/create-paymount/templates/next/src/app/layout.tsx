import type { Metadata } from 'next';
import Link from 'next/link';
import { SHOP_NAME } from '@/shop';
import './globals.css';

export const metadata: Metadata = {
  title: { template: `%s · ${SHOP_NAME}`, default: SHOP_NAME },
};

export default function RootLayout({ children }: LayoutProps<'/'>) {
  return (
    <html lang="en">
      <body>
        <header>
          <Link href="/">{SHOP_NAME}</Link>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
