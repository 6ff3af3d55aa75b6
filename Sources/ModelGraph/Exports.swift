@_exported public import Foundation

@_exported public import struct ModelGraphCore.CommittedChange
@_exported public import enum ModelGraphCore.ConflictResolution
@_exported public import enum ModelGraphCore.DeleteRule
@_exported public import enum ModelGraphCore.Durability
@_exported public import struct ModelGraphCore.JournalError
@_exported public import struct ModelGraphCore.MigrationError
@_exported public import enum ModelGraphCore.ModelValue
@_exported public import struct ModelGraphCore.PersistentIdentifier
@_exported public import struct ModelGraphCore.RecoveryReport
@_exported public import struct ModelGraphCore.SchemaDifference
@_exported public import struct ModelGraphCore.SchemaError
@_exported public import struct ModelGraphCore.SnapshotError
@_exported public import enum ModelGraphCore.ValueType
