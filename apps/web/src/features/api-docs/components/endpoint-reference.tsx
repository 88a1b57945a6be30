import openApi from '@schemacheck/contracts/api-v1/openapi.json';
import { useEffect, useRef, useState, type ReactNode } from 'react';

import { MethodBadge } from './method-badge';

// The full endpoint reference, rendered from the published OpenAPI document (bundled with the
// page: nothing is fetched, nothing runs inline, so it works offline under the strict CSP).

type Json = Record<string, unknown>;
const doc = openApi as unknown as Json;
const components = ((doc.components as Json).schemas ?? {}) as Record<string, Json>;

/** `code` spans in descriptions. */
export function Inline({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="code-inline">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function resolve(schema: Json): { schema: Json; name?: string } {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    return { schema: components[name] ?? {}, name };
  }
  return { schema };
}

function typeOf(schema: Json): string {
  const { schema: s, name } = resolve(schema);
  if (name) return name;
  if (Array.isArray(s.anyOf)) return (s.anyOf as Json[]).map(typeOf).join(' | ');
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') return `array of ${typeOf((s.items as Json) ?? {})}`;
  if (s.format === 'binary') return 'file';
  const type = Array.isArray(s.type) ? (s.type as string[]).join(' | ') : String(s.type ?? 'any');
  return s.format ? `${type} (${String(s.format)})` : type;
}

function Properties({ schema, depth }: { schema: Json; depth: number }) {
  const { schema: s } = resolve(schema);
  if (Array.isArray(s.anyOf)) {
    return (
      <div className="grid gap-2">
        <p className="text-xs font-medium text-zinc-600">One of:</p>
        {(s.anyOf as Json[]).map((option, i) => (
          <div key={i} className="rounded-md border border-zinc-200 p-3">
            <p className="font-mono text-xs text-zinc-700">{typeOf(option)}</p>
            {typeof resolve(option).schema.description === 'string' ? (
              <p className="mt-1 text-[13px] text-zinc-600">
                <Inline text={resolve(option).schema.description as string} />
              </p>
            ) : null}
            <Properties schema={option} depth={depth} />
          </div>
        ))}
      </div>
    );
  }
  const target = s.type === 'array' ? resolve((s.items as Json) ?? {}).schema : s;
  const props = target.properties as Record<string, Json> | undefined;
  if (!props || depth > 3) return null;
  const required = new Set((target.required as string[] | undefined) ?? []);
  return (
    <ul className="mt-2 grid gap-2 border-l border-zinc-200 pl-3">
      {Object.entries(props).map(([name, prop]) => {
        const inner = resolve(prop).schema;
        const nested =
          inner.properties ||
          (inner.type === 'array' && resolve((inner.items as Json) ?? {}).schema.properties);
        return (
          <li key={name} className="text-[13px]">
            <span className="font-mono font-medium text-zinc-900">{name}</span>{' '}
            <span className="font-mono text-xs text-zinc-600">{typeOf(prop)}</span>
            {required.has(name) ? (
              <span className="ml-1.5 text-xs font-medium text-red-700">required</span>
            ) : null}
            {typeof inner.description === 'string' || typeof prop.description === 'string' ? (
              <span className="block text-zinc-600">
                <Inline text={(prop.description ?? inner.description) as string} />
              </span>
            ) : null}
            {nested ? <Properties schema={prop} depth={depth + 1} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-4">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-zinc-500">{title}</h4>
      <div className="mt-2">{children}</div>
    </div>
  );
}

export interface Operation {
  method: string;
  path: string;
  op: Json;
}

export function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops))
      out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

/**
 * A response, collapsed: its body's schema is rendered when opened. Written out for every
 * response of every operation it was three quarters of the page's HTML (docs/decisions/231).
 */
function ResponseView({
  status,
  response,
}: {
  status: string;
  response: { description: string; content?: Record<string, { schema: Json }> };
}) {
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  // A <summary> works from the HTML alone: one opened before hydration fired its toggle before
  // this handler was there, and would stay open and empty (decision 240).
  useEffect(() => {
    if (details.current?.open) setOpen(true);
  }, []);
  const json = response.content?.['application/json']?.schema;
  return (
    <li className="text-[13px]">
      <details
        ref={details}
        className="group"
        onToggle={(event) => setOpen(event.currentTarget.open)}
      >
        <summary className="cursor-pointer rounded-sm text-zinc-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
          <span className="font-mono font-semibold">{status}</span>{' '}
          <Inline text={response.description} />
          {response.content ? (
            <span className="ml-1 text-xs text-zinc-600">
              ({Object.keys(response.content).join(', ')})
            </span>
          ) : null}
        </summary>
        {open && json ? (
          <div className="mt-1 pl-2">
            <p className="font-mono text-xs text-zinc-600">{typeOf(json)}</p>
            <Properties schema={json} depth={0} />
          </div>
        ) : null}
      </details>
    </li>
  );
}

function OperationView({ method, path, op }: Operation) {
  const params = (op.parameters as Json[] | undefined) ?? [];
  const body = op.requestBody as { content: Record<string, { schema: Json }> } | undefined;
  const responses = op.responses as Record<
    string,
    { description: string; content?: Record<string, { schema: Json }> }
  >;
  const id = operationId(op);
  return (
    <article
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-24 rounded-xl border border-zinc-200 bg-white p-5 shadow-xs"
    >
      <div className="flex flex-wrap items-center gap-2">
        <MethodBadge method={method} />
        <code className="break-all font-mono text-sm text-zinc-900">{path}</code>
      </div>
      <h3 id={`${id}-title`} className="mt-2 text-base font-semibold text-zinc-900">
        {String(op.summary)}
      </h3>
      {typeof op.description === 'string' ? (
        <p className="mt-1 text-sm leading-6 text-zinc-700">
          <Inline text={op.description} />
        </p>
      ) : null}
      {params.length > 0 ? (
        <Block title="Parameters">
          <ul className="grid gap-2">
            {params.map((p) => (
              <li key={`${String(p.in)}-${String(p.name)}`} className="text-[13px]">
                <span className="font-mono font-medium text-zinc-900">{String(p.name)}</span>{' '}
                <span className="font-mono text-xs text-zinc-600">
                  {String(p.in)} · {typeOf((p.schema as Json) ?? {})}
                </span>
                {p.required ? (
                  <span className="ml-1.5 text-xs font-medium text-red-700">required</span>
                ) : null}
                {typeof p.description === 'string' ? (
                  <span className="block text-zinc-600">
                    <Inline text={p.description} />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
      {body ? (
        <Block title={`Request body (${Object.keys(body.content).join(', ')})`}>
          <Properties schema={Object.values(body.content)[0]!.schema} depth={0} />
        </Block>
      ) : null}
      <Block title="Responses">
        <ul className="grid gap-1.5">
          {Object.entries(responses).map(([status, r]) => (
            <ResponseView key={status} status={status} response={r} />
          ))}
        </ul>
      </Block>
    </article>
  );
}

/** The operations' tags (their groups), in the document's order. */
export function operationTags(): string[] {
  return [...new Set(operations().map((o) => String((o.op.tags as string[])[0])))];
}

export function tagId(tag: string): string {
  return `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/** The anchor of an operation on the reference page. */
export function operationId(op: Json): string {
  return `op-${String(op.operationId)}`;
}

/** Every operation of the document, grouped by tag. */
export function EndpointReference() {
  const ops = operations();
  return (
    <div className="flex flex-col gap-10">
      {operationTags().map((tag) => (
        <section
          key={tag}
          id={tagId(tag)}
          aria-labelledby={`${tagId(tag)}-heading`}
          className="scroll-mt-24"
        >
          <h2
            id={`${tagId(tag)}-heading`}
            className="text-sm font-semibold uppercase tracking-wide text-zinc-600"
          >
            {tag}
          </h2>
          <div className="mt-3 flex flex-col gap-4">
            {ops
              .filter((o) => (o.op.tags as string[])[0] === tag)
              .map((o) => (
                <OperationView key={`${o.method} ${o.path}`} {...o} />
              ))}
          </div>
        </section>
      ))}
    </div>
  );
}

/** The error codes the document lists. */
export function errorCodes(): { code: string; status: number; description: string }[] {
  return (doc['x-error-codes'] as { code: string; status: number; description: string }[]) ?? [];
}
