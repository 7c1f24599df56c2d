import { compile } from '@inlang/paraglide-js'
import { paraglideOptions } from './options.ts'

await compile({ ...paraglideOptions, strategy: [...paraglideOptions.strategy] })
