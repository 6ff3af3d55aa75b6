@_exported public import Foundation
@_exported public import ModelGraphCore
