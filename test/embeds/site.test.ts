import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseContextUrl } from '../../src/embeds/context-hash.js';
import { hostAllowed, onSameSite, registrableDomain } from '../../src/embeds/site.js';

describe('embed sites and allowlists', () => {
  it('finds the registrable domain of a host', () => {
    assert.equal(registrableDomain('www.acme.com'), 'acme.com');
    assert.equal(registrableDomain('Docs.EU.Acme.com.'), 'acme.com');
    assert.equal(registrableDomain('shop.acme.co.uk'), 'acme.co.uk');
    assert.equal(registrableDomain('acme.co.uk'), 'acme.co.uk');
    assert.equal(registrableDomain('127.0.0.1'), '127.0.0.1');
    assert.equal(registrableDomain('[::1]'), '::1');
    assert.equal(registrableDomain('localhost'), 'localhost');
  });

  it('keeps context.url on the project’s site, whatever the subdomain, scheme or port', () => {
    assert.ok(onSameSite('https://docs.acme.com/a', 'https://www.acme.com'));
    assert.ok(onSameSite('http://acme.com:8080/', 'https://acme.com'));
    assert.ok(!onSameSite('https://acme.com.evil.net/', 'https://acme.com'));
    assert.ok(!onSameSite('https://other.co.uk/', 'https://acme.co.uk'));
    assert.ok(!onSameSite('http://127.0.0.2/', 'http://127.0.0.1/'));
  });

  it('matches hosts exactly, or as subdomains of a *. entry', () => {
    const list = ['acme.com', '*.acme-docs.com'];
    assert.ok(hostAllowed('acme.com', list));
    assert.ok(hostAllowed('ACME.com.', list));
    assert.ok(!hostAllowed('www.acme.com', list));
    assert.ok(!hostAllowed('evilacme.com', list));
    assert.ok(hostAllowed('eu.docs.acme-docs.com', list));
    assert.ok(!hostAllowed('acme-docs.com', list));
    assert.ok(!hostAllowed('xacme-docs.com', list));
  });

  it('normalises page URLs: no fragment, no utm_*, sorted query', () => {
    assert.equal(normaliseContextUrl('https://Acme.com/p?b=2&utm_source=x&a=1#top'), 'https://acme.com/p?a=1&b=2');
    assert.equal(normaliseContextUrl('https://acme.com/p?UTM_Medium=y'), 'https://acme.com/p');
    assert.equal(normaliseContextUrl('https://ACME.com./p'), 'https://acme.com/p');
  });
});
