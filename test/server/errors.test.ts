/**
 * The error classes' `instanceof`: by brand for the two library classes (so it holds across two
 * copies of the package), by prototype chain for an author's subclasses.
 */
import { describe, expect, it } from 'vitest';

import { McpResolveError, ToolError } from '../../src/errors.js';

class OrderNotFound extends ToolError {}
class PaymentDeclined extends ToolError {}
class StoreDown extends McpResolveError {}

describe('error classes and instanceof', () => {
  it('a subclass of ToolError matches its own instances only', () => {
    const missing = new OrderNotFound('unknown order');
    expect(missing instanceof OrderNotFound).toBe(true);
    expect(missing instanceof ToolError).toBe(true);
    expect(new ToolError('x') instanceof OrderNotFound).toBe(false);
    expect(new PaymentDeclined('no') instanceof OrderNotFound).toBe(false);
  });

  it('a subclass of McpResolveError matches its own instances only', () => {
    expect(new StoreDown('redis_unavailable', 'down') instanceof StoreDown).toBe(true);
    expect(new StoreDown('redis_unavailable', 'down') instanceof McpResolveError).toBe(true);
    expect(new McpResolveError('invalid_usage', 'x') instanceof StoreDown).toBe(false);
  });

  it('an error from another copy of the package is still a ToolError and a McpResolveError', () => {
    // Another copy's instances carry the same global brands but another prototype chain.
    const foreignTool = Object.defineProperty(new Error('x'), Symbol.for('mcp-resolve.tool-error'), { value: true });
    const foreignCoded = Object.defineProperty(new Error('x'), Symbol.for('mcp-resolve.error'), { value: true });
    expect(foreignTool instanceof ToolError).toBe(true);
    expect(foreignCoded instanceof McpResolveError).toBe(true);
    expect(foreignTool instanceof OrderNotFound).toBe(false);
    expect(new Error('x') instanceof ToolError).toBe(false);
  });
});
