import { type DynamicModule, Module } from '@nestjs/common';
import { NameCountScheduler } from './name-count-scheduler';
import { NAME_COUNT_SETTINGS, type NameCountSettings } from './name-count-settings';
import { NameFragmentRegistration } from './name-fragment-registration';
import { NameFragmentsRepository } from './repository/name-fragments.repository';
import { NameRegistrationLimits } from './repository/name-registration-limits.repository';

/**
 * Kept name counts: which `name` fragments a company gets counts of, and their registration
 * (`libs/customers-queries/README.md`, "Name counts"). The customers list tells the scheduler what
 * it read (`NameCountObserver`); nothing else of the module is used outside it.
 */
@Module({})
export class NameCountsModule {
  /** `settings` is read at each decision (the same object as the service's CustomerSettings.nameCounts). */
  static forRoot(settings: NameCountSettings): DynamicModule {
    return {
      module: NameCountsModule,
      providers: [
        { provide: NAME_COUNT_SETTINGS, useValue: settings },
        NameFragmentsRepository,
        NameRegistrationLimits,
        NameFragmentRegistration,
        NameCountScheduler,
      ],
      exports: [NameCountScheduler],
    };
  }
}
