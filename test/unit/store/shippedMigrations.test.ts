import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { postgresMigrations } from '../../../src/ports/store/postgres/postgresSchema.js';
import { storeMigrations } from '../../../src/ports/store/sqlite/sqliteSchema.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// A store on disk was created by these exact texts: a shipped migration is never edited, only appended to.
describe('shipped migrations', () => {
  it('are, byte for byte, the SQLite texts that created the stores on disk', () => {
    expect(storeMigrations.map(sha256)).toEqual([
      'd381b8720f71d998efe7fe146570b72fdc697dd23c20eb89961530afd8aaf5e5',
      '0bbdbf6a4d1fd3053598c5364828eee0b93d9516c5b655ed0362811d675b2056',
      'b1be8eea9989196246501cb1998b5720476702feb86ec369e11d0505fdb7b376',
      '0ca0fd58362336190bf922458f3e989b08b4757d7cf65cc52f6cabb2eb7e3aa9',
      'a8a02a2416e40014eaff0adb8f18d6c82166b71c7322c0e41f68595f0ed788f6',
      '1ce8ac24e27dde3d96b7a98de9105302d44df2be46454794ea50540f47f666ab',
      '7bda2c12b1a6cc27007a29e77de25c0805cfd1264c88b80229f900a7cb169ce0',
      '37a45af0414702c695bf203850c4fb652aeefc319f9fb69ec863fc5164b5ba77',
      '3b244b14553ec179a0b80f222bdee112314d526aecf1f8554d00d71146d0fe7a',
      '92cdf1f3cdd976638e2529f822d28d7e53b94c4a6a3f369b4978099e3012f4de',
      '2cd384744211e34451dc35a69c322a30af50ef488581ba6844821e7fa0f5a836',
    ]);
  });

  it('are, byte for byte, the PostgreSQL texts that created the stores in use', () => {
    expect(postgresMigrations.map(sha256)).toEqual([
      '99dd9f9930b2303999b86557b19e5bde9884902a1cf835981246c0e1a33364ba',
      '70a4e6dfbf90c89a2c8b862051d360d65288df608d3ac83a249b7ce678040f17',
      '50ffc42649a124f90c79fe25c0e5df251b1ecfa41cddbb9ad0731aabad996207',
      'a8a02a2416e40014eaff0adb8f18d6c82166b71c7322c0e41f68595f0ed788f6',
      'ba796d887d3830bb7be8c91d0b6c92a6741284c5039c49f0fd737f6066a15f30',
      'ad07b0cb0e8d148db0f9b12b50e95f5a581e396dc3afa08f734ccdfd93a57df5',
      '9a6b3a4be0f1d460040283c9eb85ed937db591259c0115b2f27eff8413decbb3',
      '272da99b5d533906e50c7b5477e223d5e340c2f894170bf2a5ca18fe45b5af65',
      '5a85d889dcca3d5b81b340df16cfdce77928c34895af69f6ee8d2a8a6ec2a0d9',
      'b521bc2781f224bafc9df7d488f8430b1db847671e5fa4c1f7f04cf5f4da0b82',
      '327ff99a3229add1a00716a363c6a6f2c06154808fbdb376f7b1849919c78063',
    ]);
  });
});
