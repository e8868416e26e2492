import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Default codes of the DomainError factories (libs/shared/kernel): argument index of the code, default code. */
const FACTORY_CODES: Record<string, readonly [index: number, code: string]> = {
  notFound: [1, 'not_found'],
  forbidden: [1, 'forbidden'],
  unauthorized: [1, 'unauthorized'],
  invalid: [1, 'invalid_request'],
  conflict: [1, 'conflict'],
  tooMany: [2, 'rate_limited'],
};
/** Helpers that throw a DomainError with a code given by their caller: name → argument index of the code. */
const CODE_FORWARDERS: Record<string, number> = { assertUnderRateRules: 4 };
/** Never sent in X-Error-Code (the gateway answers 'Internal server error' without a code). */
const UNSENT = new Set(['internal']);
const SOURCE = /(?<!\.(spec|integration-spec|e2e-spec))\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : SOURCE.test(e.name) ? [path] : [];
  });
}

/** The parameter of an enclosing function that `id` names, if any. */
function parameterNamed(id: ts.Identifier): ts.ParameterDeclaration | undefined {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    if (ts.isFunctionLike(node)) {
      const param = node.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === id.text);
      if (param) return param;
    }
  }
  return undefined;
}

export interface ErrorCodeScan {
  codes: string[];
  /** Places whose code is neither a literal, a string constant of the file, nor a forwarded parameter. */
  unresolved: string[];
}

/**
 * Every stable error code the services can throw (X-Error-Code), read from the code of `libs/` and `apps/`:
 * `new DomainError('code', …)`, the DomainError factories (with their default codes) and the helpers that
 * forward a caller's code.
 */
export function scanServerErrorCodes(repoRoot: string): ErrorCodeScan {
  const codes = new Set<string>();
  const unresolved: string[] = [];
  for (const file of [...sourceFiles(join(repoRoot, 'libs')), ...sourceFiles(join(repoRoot, 'apps'))]) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('DomainError') && !Object.keys(CODE_FORWARDERS).some((f) => text.includes(f))) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const constants = new Map<string, string>();
    const collect = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteralLike(node.initializer))
        constants.set(node.name.text, node.initializer.text);
      ts.forEachChild(node, collect);
    };
    collect(source);
    const add = (code: string) => !UNSENT.has(code) && codes.add(code);
    const record = (arg: ts.Expression | undefined, fallback: string | null, at: ts.Node) => {
      if (!arg || ts.isStringLiteralLike(arg)) return add(arg ? arg.text : (fallback ?? ''));
      if (ts.isIdentifier(arg) && constants.has(arg.text)) return add(constants.get(arg.text) ?? '');
      const param = ts.isIdentifier(arg) ? parameterNamed(arg) : undefined;
      // A code parameter typed as a union of literals ('a' | 'b') throws those; any other parameter or a
      // re-thrown remote error (`payload.code`) forwards a code thrown elsewhere.
      if (param?.type && ts.isUnionTypeNode(param.type))
        return param.type.types.forEach((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) && add(t.literal.text));
      if (param || ts.isPropertyAccessExpression(arg)) return;
      unresolved.push(`${file}:${source.getLineAndCharacterOfPosition(at.getStart()).line + 1}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'DomainError') record(node.arguments?.[0], null, node);
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (
          ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'DomainError' &&
          FACTORY_CODES[callee.name.text]
        ) {
          const [index, code] = FACTORY_CODES[callee.name.text];
          record(node.arguments[index], code, node);
        }
        if (ts.isIdentifier(callee) && CODE_FORWARDERS[callee.text] !== undefined && node.arguments[CODE_FORWARDERS[callee.text]])
          record(node.arguments[CODE_FORWARDERS[callee.text]], null, node);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { codes: [...codes].sort(), unresolved };
}
