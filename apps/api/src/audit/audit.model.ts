import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { AuditActorKind, AuditOutcome, CredentialKind } from '@trove/domain';
import { PageInfoModel } from '../core/connection.model';
import { JsonScalar } from '../core/json.scalar';

const AuditOutcomeEnum = AuditOutcome;
type AuditOutcomeEnum = AuditOutcome;
registerEnumType(AuditOutcomeEnum, {
  name: 'AuditOutcome',
  valuesMap: {
    SUCCESS: { description: 'Done' },
    DENIED: { description: 'Refused by authentication or the access rules' },
    FAILURE: { description: 'Allowed, but it failed (bad input, a conflict, a backend down)' },
  },
});

const AuditActorKindEnum = AuditActorKind;
type AuditActorKindEnum = AuditActorKind;
registerEnumType(AuditActorKindEnum, { name: 'AuditActorKind' });

@ObjectType('AuditActor', {
  description: 'Who: a person (with the session or token used), an API key, or nobody',
})
export class AuditActorModel {
  @Field(() => AuditActorKindEnum) kind!: AuditActorKindEnum;
  @Field(() => ID, { nullable: true, description: "The user's or key's id" }) id!: string | null;
  @Field() name!: string;
  @Field(() => CredentialKind, { nullable: true }) credential!: CredentialKind | null;
  @Field(() => String, { nullable: true, description: 'The session or token' }) credentialId!: string | null;
}

@ObjectType('AuditTarget')
export class AuditTargetModel {
  @Field() kind!: string;
  @Field(() => ID) id!: string;
}

@ObjectType('AuditEvent', { description: 'One entry of the append-only audit log' })
export class AuditEventModel {
  @Field(() => ID, { description: 'Increasing with each entry' }) id!: string;
  @Field() at!: string;
  @Field(() => AuditActorModel) actor!: AuditActorModel;
  @Field(() => String, { nullable: true, description: 'The client address' }) address!: string | null;
  @Field(() => String, { nullable: true }) userAgent!: string | null;
  @Field({ description: 'What was done (auth.sign_in, source.added, access.role_granted, …)' })
  action!: string;
  @Field(() => AuditTargetModel, { nullable: true }) target!: AuditTargetModel | null;
  @Field(() => ID, { nullable: true }) projectId!: string | null;
  @Field(() => AuditOutcomeEnum) outcome!: AuditOutcomeEnum;
  @Field(() => String, { nullable: true, description: 'The error code of a refusal or failure' }) code!:
    string | null;
  @Field(() => JsonScalar, { nullable: true, description: 'What else there is to say (never a secret)' })
  detail!: Record<string, unknown> | null;
}

@ObjectType('AuditEventConnection')
export class AuditEventConnection {
  @Field(() => [AuditEventModel], { description: 'Newest first' }) nodes!: AuditEventModel[];
  @Field(() => PageInfoModel) pageInfo!: PageInfoModel;
  @Field(() => Int) totalCount!: number;
}

@InputType({ description: 'Every field narrows the log; none: all of it' })
export class AuditFilterInput {
  @Field(() => ID, { nullable: true, description: "A user's or key's id" }) actorId?: string | null;
  @Field(() => AuditActorKindEnum, { nullable: true }) actorKind?: AuditActorKindEnum | null;
  @Field(() => String, { nullable: true, description: 'An action, or the start of one (auth., source.)' })
  action?: string | null;
  @Field(() => AuditOutcomeEnum, { nullable: true }) outcome?: AuditOutcomeEnum | null;
  @Field(() => ID, { nullable: true }) projectId?: string | null;
  @Field(() => String, { nullable: true, description: 'From this time (ISO 8601)' }) from?: string | null;
  @Field(() => String, { nullable: true, description: 'Before this time (ISO 8601)' }) to?: string | null;
}

@ObjectType('AuditSettings')
export class AuditSettingsModel {
  @Field(() => Int, { description: 'Days entries are kept (TROVE_AUDIT_RETENTION_DAYS); 0: for ever' })
  retentionDays!: number;
  @Field({ description: 'counts (searches and asks counted per person and day) or full (each one an entry)' })
  queryLog!: string;
}

@ObjectType('QueryCount', { description: 'Searches and asks of one person or key in one project on one day' })
export class QueryCountModel {
  @Field() day!: string;
  @Field(() => AuditActorModel) actor!: AuditActorModel;
  @Field(() => ID) projectId!: string;
  @Field(() => Int) searches!: number;
  @Field(() => Int) asks!: number;
}
