/**
 * XML as SAML documents arrive: parsed by @xmldom/xmldom, and refused whole (null) on any parse
 * error or a DOCTYPE (no entities, internal or external, ever reach a parser here).
 */
import { DOMParser } from '@xmldom/xmldom';

export function parseXml(xml: string): Document | null {
  if (/<!DOCTYPE/i.test(xml)) return null;
  let failed = false;
  const onError = () => {
    failed = true;
  };
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: onError, fatalError: onError } }).parseFromString(xml, 'text/xml');
  return failed ? null : doc;
}
