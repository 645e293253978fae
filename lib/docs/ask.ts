/**
 * Help questions. Answers are advisory text only. With HELP_PROVIDER_URL the question goes to an
 * OpenAI-compatible chat-completions provider; its key and its response body never leave the server
 * (only the extracted answer text does). Without a provider, the answer is drawn from our own docs.
 */
import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import type { DocSection } from './content';
import { searchDocs } from './search';

export interface HelpAnswer {
  answer: string;
  sources: { title: string; url: string }[];
  advisory: true;
}

const MAX_PROVIDER_BYTES = 256 * 1024;
const MAX_ANSWER_CHARS = 4000;

function localAnswer(sections: DocSection[]): string {
  if (sections.length === 0) {
    return 'No part of the documentation matches this question. The API reference at /docs lists every operation.';
  }
  return sections.map((s) => `${s.title}: ${s.body.join(' ')}`).join('\n\n');
}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_PROVIDER_BYTES) {
      await reader.cancel();
      throw serviceError('upstream_failed', 'The help provider sent an oversized answer.');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function providerAnswer(question: string, context: DocSection[]): Promise<string> {
  const help = getConfig().help!;
  const endpoint = `${help.url.replace(/\/+$/, '')}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      redirect: 'error',
      signal: AbortSignal.timeout(help.timeoutMs),
      headers: { 'Content-Type': 'application/json', ...(help.apiKey ? { Authorization: `Bearer ${help.apiKey}` } : {}) },
      body: JSON.stringify({
        model: help.model,
        max_tokens: 600,
        messages: [
          {
            role: 'system',
            content:
              'You answer questions about an identity service using only the documentation below. Your answer is advisory. ' +
              'Never ask for or repeat secrets, passwords, codes or tokens.\n\n' +
              context.map((s) => `## ${s.title}\n${s.body.join('\n')}`).join('\n\n'),
          },
          { role: 'user', content: question },
        ],
      }),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw serviceError('upstream_timeout', 'The help provider did not answer in time.');
    }
    throw serviceError('service_unavailable', 'The help provider is unreachable.');
  }
  if (response.status === 429 || response.status === 503) throw serviceError('service_unavailable', 'The help provider is busy.');
  if (!response.ok) throw serviceError('upstream_failed', 'The help provider failed.');
  let text: string;
  try {
    text = await readBounded(response);
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw serviceError('upstream_timeout', 'The help provider did not answer in time.');
    throw error;
  }
  let content: unknown;
  try {
    content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  } catch {
    throw serviceError('upstream_failed', 'The help provider sent an unreadable answer.');
  }
  if (typeof content !== 'string' || content.trim() === '') throw serviceError('upstream_failed', 'The help provider sent no answer.');
  return content.trim().slice(0, MAX_ANSWER_CHARS);
}

export async function askHelp(question: string, page?: string): Promise<HelpAnswer> {
  const context = searchDocs(question, page, 3);
  const answer = getConfig().help
    ? await providerAnswer(question, context.length ? context : searchDocs('overview authentication errors', undefined, 3))
    : localAnswer(context);
  return { answer, sources: context.map((s) => ({ title: s.title, url: s.url })), advisory: true };
}
