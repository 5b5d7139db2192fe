"""Interop checks between mcp-resolve (TypeScript) and the official MCP Python SDK."""
