import { Module } from '@nestjs/common';
import { PeopleResolver } from './people.resolver';
import { PeopleService } from './people.service';
import { PersonalTokensResolver } from './personal-tokens.resolver';

/** People, groups, project roles and personal tokens. */
@Module({ providers: [PeopleResolver, PeopleService, PersonalTokensResolver] })
export class PeopleModule {}
