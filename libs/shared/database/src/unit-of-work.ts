import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE } from './data-source.factory';

export const UNIT_OF_WORK = Symbol('UNIT_OF_WORK');

/** Runs work in one database transaction: state changes and their outbox events commit together. */
export interface UnitOfWork {
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T>;
}

@Injectable()
export class TypeOrmUnitOfWork implements UnitOfWork {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }
}
