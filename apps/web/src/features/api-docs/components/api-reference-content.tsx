import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';

import { EndpointReference, operationTags, tagId } from './endpoint-reference';

// /api-docs/reference: every operation of the OpenAPI document in full. It has its own page so
// that the guide at /api-docs stays light (docs/decisions/231).

export function ApiReferenceContent() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8 lg:py-14">
      <Link
        to={paths.apiDocs}
        className="inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        API Documentation
      </Link>
      <h1 className="mt-3 text-3xl font-semibold tracking-tight text-zinc-900 sm:text-4xl">
        Endpoint reference
      </h1>
      <p className="mt-3 max-w-3xl text-base leading-7 text-zinc-600">
        Every endpoint of the v1 API with its parameters, request body and responses, generated from
        the{' '}
        <a
          href="/api/v1/openapi.json"
          className="font-medium text-indigo-700 underline underline-offset-2"
        >
          OpenAPI 3.1 document
        </a>
        , which you can load into your own tools.
      </p>
      <nav aria-label="Endpoint groups" className="mt-6">
        <ul className="flex flex-wrap gap-2 text-sm">
          {operationTags().map((tag) => (
            <li key={tag}>
              <a
                href={`#${tagId(tag)}`}
                className="block rounded-md border border-zinc-200 bg-white px-2.5 py-1 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
              >
                {tag}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-10">
        <EndpointReference />
      </div>
    </div>
  );
}
