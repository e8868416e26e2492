export const RETRIEVAL_STATE = Symbol('RETRIEVAL_STATE');
export const EMBEDDED_INDEX = Symbol('EMBEDDED_INDEX');
export const BUILD_AGENT_JOB = 'retrieval.build-agent';
