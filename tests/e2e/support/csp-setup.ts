import { failOnCspViolations } from './csp';

// Setup file of the browser suites: no test may cause a Content-Security-Policy violation.
failOnCspViolations();
