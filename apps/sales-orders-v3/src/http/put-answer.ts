import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors, ApiJsonResponse, JSON_TYPE, LOCATION_HEADER, ref } from '@erp/openapi';

// The inventory and pricing controllers take it from here with the PUT answer.
export { JSON_TYPE };

/**
 * The answer of a PUT that creates or replaces a whole record (the inventory item and price rule
 * extensions): 201 with `Location` when it created the record, else 200; the body is the record.
 */
export function answerPut(reply: FastifyReply, result: { json: string; created: boolean }, location: string): string {
  void reply.status(result.created ? 201 : 200).type(JSON_TYPE);
  if (result.created) void reply.header('location', location);
  return result.json;
}

/** The OpenAPI of such a PUT: its body schema, 201 (with `Location`) and 200 answering `answer`, and its errors. */
export function ApiPutWhole(body: string, answer: string): MethodDecorator {
  return applyDecorators(
    ApiBody({ schema: ref(body) }),
    ApiJsonResponse(201, 'Created', answer, LOCATION_HEADER),
    ApiJsonResponse(200, 'Replaced', answer),
    ApiErrors('problem', 413, 415),
  );
}
