-- The audit trail is append-only, enforced by the database rather than by a comment (ASVS V16.4.2).
-- INSERT is free; DELETE and TRUNCATE are always refused; UPDATE only inside the one erasure path
-- below (privacy requests), and even there only as a redaction: personal columns may become NULL and
-- `data` may become '{}', nothing else may change. So no caller of this connection, whatever SQL it
-- sends, can alter what happened, when, or with which outcome.
CREATE FUNCTION "audit_events_refuse_rewrite"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('identity.audit_erasure', true) = 'on' THEN
    IF NEW.id IS DISTINCT FROM OLD.id
      OR NEW.created_at IS DISTINCT FROM OLD.created_at
      OR NEW.action IS DISTINCT FROM OLD.action
      OR NEW.outcome IS DISTINCT FROM OLD.outcome
      OR NEW.actor_type IS DISTINCT FROM OLD.actor_type
      OR NEW.organization_id IS DISTINCT FROM OLD.organization_id
      OR NEW.subject_type IS DISTINCT FROM OLD.subject_type
      OR NEW.request_id IS DISTINCT FROM OLD.request_id
      OR (NEW.actor_id IS NOT NULL AND NEW.actor_id IS DISTINCT FROM OLD.actor_id)
      OR (NEW.subject_id IS NOT NULL AND NEW.subject_id IS DISTINCT FROM OLD.subject_id)
      OR (NEW.data <> '{}'::jsonb AND NEW.data IS DISTINCT FROM OLD.data)
    THEN
      RAISE EXCEPTION 'audit_events: the erasure path may only remove personal data'
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused (erase personal data with erase_audit_personal_data)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_rewrite"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_rewrite"();
--> statement-breakpoint
-- The one erasure path (privacy requests): removes a user's personal data from the audit rows by or
-- about them and from rows naming them in their data, leaving every row in place (what happened and
-- when stays provable). The marker is transaction-local and cleared before returning, so the rest of
-- the caller's transaction is append-only again. Returns the number of rows redacted.
CREATE FUNCTION "erase_audit_personal_data"(target_user text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  redacted integer;
BEGIN
  PERFORM set_config('identity.audit_erasure', 'on', true);
  UPDATE "audit_events" SET
    "actor_id" = CASE WHEN "actor_id" = target_user THEN NULL ELSE "actor_id" END,
    "subject_id" = CASE WHEN "subject_type" = 'user' AND "subject_id" = target_user THEN NULL ELSE "subject_id" END,
    "data" = '{}'::jsonb
  WHERE "actor_id" = target_user
    OR ("subject_type" = 'user' AND "subject_id" = target_user)
    OR "data"->>'user' = target_user;
  GET DIAGNOSTICS redacted = ROW_COUNT;
  PERFORM set_config('identity.audit_erasure', '', true);
  RETURN redacted;
END
$$;
