import { betterAuth } from 'better-auth';
import { peerOptions } from './auth-options';

export const auth = betterAuth(peerOptions(process.env));
