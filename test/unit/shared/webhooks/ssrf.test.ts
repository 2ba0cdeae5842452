import t from 'tap';
import { AddressPolicy, ipLiteral } from '../../../../services/shared/webhooks/ssrf.js';

const strict = new AddressPolicy();

t.test('refuses every internal and special-purpose range', async (t) => {
  const refused: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
  ];
  for (const [address, range] of refused) t.equal(strict.refusal(address), range, address);
  t.equal(strict.refusal('not an address'), 'invalid');
});

t.test('allows public unicast', async (t) => {
  for (const address of [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ]) {
    t.equal(strict.refusal(address), undefined, address);
  }
});

t.test('the operator allow-list overrides the refusal, for its ranges only', async (t) => {
  const loopback = new AddressPolicy(['127.0.0.0/8', '::1/128']);
  t.equal(loopback.refusal('127.0.0.1'), undefined);
  t.equal(loopback.refusal('::ffff:127.0.0.1'), undefined, 'mapped forms too');
  t.equal(loopback.refusal('::1'), undefined);
  t.equal(loopback.refusal('10.0.0.1'), 'private');
  t.equal(loopback.refusal('169.254.169.254'), 'linkLocal');
  const office = new AddressPolicy(['10.1.0.0/16']);
  t.equal(office.refusal('10.1.2.3'), undefined);
  t.equal(office.refusal('10.2.0.1'), 'private');
});

t.test('IP literals in URL hosts', async (t) => {
  t.equal(ipLiteral('127.0.0.1'), '127.0.0.1');
  t.equal(ipLiteral('[::1]'), '::1');
  t.equal(ipLiteral(new URL('http://[::ffff:127.0.0.1]/').hostname), '::ffff:7f00:1');
  t.equal(
    ipLiteral(new URL('http://127.1/').hostname),
    '127.0.0.1',
    'short forms are normalised by URL',
  );
  t.equal(ipLiteral(new URL('http://0x7f000001/').hostname), '127.0.0.1');
  t.equal(ipLiteral('localhost'), undefined);
  t.equal(ipLiteral('hooks.example.com'), undefined);
});
