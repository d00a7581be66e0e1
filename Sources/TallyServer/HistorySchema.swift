/// The tables of the server's history (Docs/Sync.md, "Built: the server's history").
///
/// `tally_schema` holds one row, the version of the tables below; ``HouseholdHistory/migrate()``
/// creates version 1 and runs each later version's steps after it, in order.
enum HistorySchema {
    /// The version this build writes and reads.
    static let version = 6

    /// The steps from version `n - 1` to `n`, by `n` (version 1 from nothing).
    static var steps: [Int: [String]] { [1: version1, 2: version2, 3: version3, 4: version4, 5: version5, 6: version6] }

    /// The key of the advisory lock that serialises migrations between server processes.
    static let migrationLockKey: Int64 = 0x7461_6c6c_7973_6368  // "tallysch"

    static let createVersionTable = """
        CREATE TABLE IF NOT EXISTS tally_schema (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            version integer NOT NULL
        )
        """

    /// Version 1, one statement each (the extended protocol runs one at a time).
    static let version1: [String] = [
        """
        CREATE TABLE households (
            household_id uuid PRIMARY KEY,
            last_sequence bigint NOT NULL CHECK (last_sequence >= 0),
            last_chain bytea NOT NULL
        )
        """,
        """
        CREATE TABLE frames (
            household_id uuid NOT NULL REFERENCES households,
            first_sequence bigint NOT NULL CHECK (first_sequence >= 1),
            last_sequence bigint NOT NULL CHECK (last_sequence >= first_sequence),
            records bytea NOT NULL,
            chain bytea NOT NULL,
            PRIMARY KEY (household_id, first_sequence)
        )
        """,
        // A pull asks for the frames that end after a device's cursor.
        "CREATE UNIQUE INDEX frames_by_last_sequence ON frames (household_id, last_sequence)",
        """
        CREATE TABLE devices (
            device_id uuid PRIMARY KEY,
            household_id uuid NOT NULL REFERENCES households,
            person_id uuid NOT NULL,
            token_sha256 bytea NOT NULL UNIQUE,
            revoked boolean NOT NULL DEFAULT false
        )
        """,
        """
        CREATE TABLE commands (
            household_id uuid NOT NULL REFERENCES households,
            command_id uuid NOT NULL,
            device_id uuid NOT NULL REFERENCES devices,
            outcome jsonb NOT NULL,
            PRIMARY KEY (household_id, command_id)
        )
        """,
        "INSERT INTO tally_schema (version) VALUES (1)",
    ]

    /// Version 2: the household's personal keys, sealed under its secret, and invitations for
    /// a new device (Docs/Sync.md, "Keys between devices", "Joining a household").
    static let version2: [String] = [
        """
        CREATE TABLE person_keys (
            household_id uuid NOT NULL REFERENCES households,
            person_id uuid NOT NULL,
            serial bigint GENERATED ALWAYS AS IDENTITY,
            sealed bytea,
            fingerprint bytea,
            CHECK ((sealed IS NULL) = (fingerprint IS NULL)),
            PRIMARY KEY (household_id, person_id)
        )
        """,
        // A device asks for the keys stored after its cursor.
        "CREATE UNIQUE INDEX person_keys_by_serial ON person_keys (household_id, serial)",
        """
        CREATE TABLE device_invitations (
            code_sha256 bytea PRIMARY KEY,
            household_id uuid NOT NULL REFERENCES households,
            person_id uuid NOT NULL,
            invitation_id uuid,
            invited_by uuid NOT NULL REFERENCES devices,
            expires_at_ms bigint NOT NULL,
            accepted_by uuid REFERENCES devices
        )
        """,
        "UPDATE tally_schema SET version = 2",
    ]

    /// Version 3: what an append withdraws (a removed or forgotten person's devices and codes)
    /// is found by household and person, not by a scan under the household's row lock.
    static let version3: [String] = [
        "CREATE INDEX device_invitations_by_person ON device_invitations (household_id, person_id)",
        "CREATE INDEX devices_by_person ON devices (household_id, person_id)",
        "UPDATE tally_schema SET version = 3",
    ]

    /// Version 4: a device that joined as the invitee of a household invitation is an invitee's
    /// device until the invitation is accepted; its token stops at the invitation's expiry.
    static let version4: [String] = [
        "ALTER TABLE devices ADD COLUMN invitee_until_ms bigint",
        "UPDATE tally_schema SET version = 4",
    ]

    /// The channel a commit that moves a household's head notifies, with "<household id> <head>"
    /// (``HouseholdHistory/listenForCommits(listening:heard:)``).
    static let commitChannel = "tally_commits"

    /// Version 5: a commit that moves a household's head notifies ``commitChannel`` (whatever
    /// process or tool wrote it), so that a waiting pull in every server process wakes without
    /// reading PostgreSQL over and over (Docs/Sync.md, "Waking a long poll").
    static let version5: [String] = [
        """
        CREATE FUNCTION tally_notify_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('\(commitChannel)', NEW.household_id::text || ' ' || NEW.last_sequence::text);
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER households_notify_commit AFTER UPDATE OF last_sequence ON households
        FOR EACH ROW WHEN (NEW.last_sequence > OLD.last_sequence) EXECUTE FUNCTION tally_notify_commit()
        """,
        "UPDATE tally_schema SET version = 5",
    ]

    /// Version 6: the household's secret verifier (Docs/Sync.md, "Keys between devices"): the
    /// first device that shares keys sets it, and a device whose secret gives another one is
    /// refused, so the keys of one household are all sealed under one secret.
    static let version6: [String] = [
        "ALTER TABLE households ADD COLUMN secret_verifier bytea",
        "UPDATE tally_schema SET version = 6",
    ]
}
