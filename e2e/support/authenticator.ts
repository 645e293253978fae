import type { CDPSession, Page } from '@playwright/test';

/** Chromium's CDP virtual authenticator: a platform passkey with user verification (ctap2, resident keys). */
export class VirtualAuthenticator {
  private constructor(
    private readonly cdp: CDPSession,
    readonly id: string,
  ) {}

  static async attach(page: Page): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return new VirtualAuthenticator(cdp, authenticatorId);
  }

  async credentialCount(): Promise<number> {
    const { credentials } = await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.id });
    return credentials.length;
  }

  /** Negative tests: make the next responses carry a bogus signature or lack the UV / UP flags. */
  async override(bits: { isBogusSignature?: boolean; isBadUV?: boolean; isBadUP?: boolean }): Promise<void> {
    await this.cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId: this.id, ...bits });
  }

  async remove(): Promise<void> {
    await this.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.id });
  }
}

/**
 * Chromium's virtual authenticator answers a waiting conditional (autofill) request as soon as any
 * field gets focus, so a test of the explicit button first makes conditional mediation unavailable,
 * as in browsers without passkey autofill. Call before navigating; `allowAutofill` undoes it.
 */
export async function withoutAutofill(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('e2e-no-autofill') !== 'off') {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    }
  });
}

export async function allowAutofill(page: Page): Promise<void> {
  await page.evaluate(() => sessionStorage.setItem('e2e-no-autofill', 'off'));
}
