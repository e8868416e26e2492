// oidc-provider ships no types; the test uses a small part of its API.
declare module 'oidc-provider';
