" Vim syntax file
" Language: blk (block-level GPU kernel language, see docs/language.md)
" Mirrors editors/vscode/syntaxes/blk.tmLanguage.json.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn keyword blkConditional if else
syn keyword blkRepeat      for in while
syn keyword blkStatement   return break continue
syn keyword blkInclude     import
syn keyword blkOperatorKw  as
syn keyword blkAssert      static_assert
syn keyword blkStorage     kernel fn let var nextgroup=blkDeclName skipwhite
syn keyword blkConst       const nextgroup=blkConstName skipwhite
syn keyword blkBoolean     true false
syn keyword blkConstant    None inf nan

syn match blkDeclName  '\h\w*' contained
syn match blkConstName '\h\w*' contained

syn keyword blkType i1 i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 f8e4m3 f8e5m2 bool
syn match   blkPointer '\*\s*\%(i1\|i8\|i16\|i32\|i64\|u8\|u16\|u32\|u64\|f16\|bf16\|f32\|f64\|f8e4m3\|f8e5m2\|bool\)\>'

" Built-ins of LANGUAGE.md section 7, only when called.
syn match blkBuiltin '\<\%(program_id\|num_programs\|arange\|zeros\|full\|load\|store\|atomic_add\|atomic_max\|atomic_min\|atomic_and\|atomic_or\|atomic_xor\|atomic_xchg\|atomic_cas\|broadcast_to\|reshape\|trans\|permute\|expand_dims\|join\|split\|where\|maximum\|minimum\|clamp\|sum\|max\|min\|prod\|argmax\|argmin\|cumsum\|exp\|exp2\|log\|log2\|sqrt\|rsqrt\|abs\|floor\|ceil\|sin\|cos\|tanh\|erf\|sigmoid\|fma\|dot\|cdiv\|multiple_of\|max_contiguous\|print\|assert\|range\|static_range\)\ze\s*('

syn match blkAttribute '@\h\w*'

syn match blkNumber '\<\d[0-9_]*\>'
syn match blkNumber '\<0[xX]\x[0-9a-fA-F_]*\>'
syn match blkNumber '\<0[bB][01][01_]*\>'
syn match blkFloat  '\<\d[0-9_]*\.\d[0-9_]*\%([eE][+-]\=\d\+\)\='
syn match blkFloat  '\<\d[0-9_]*[eE][+-]\=\d\+\>'
syn match blkFloat  '\%(\w\)\@<!\.\d[0-9_]*\%([eE][+-]\=\d\+\)\='

syn match  blkEscape  contained '\\\%([\\"nrt0]\|x\x\x\)'
syn region blkString  start='"' skip='\\"' end='"\|$' contains=blkEscape

syn keyword blkTodo contained TODO FIXME XXX NOTE
syn region blkLineComment  start='//' end='$' contains=blkTodo,@Spell
syn region blkBlockComment start='/\*' end='\*/' contains=blkTodo,@Spell

hi def link blkConditional  Conditional
hi def link blkRepeat       Repeat
hi def link blkStatement    Statement
hi def link blkInclude      Include
hi def link blkOperatorKw   Operator
hi def link blkAssert       Keyword
hi def link blkStorage      StorageClass
hi def link blkConst        StorageClass
hi def link blkDeclName     Function
hi def link blkConstName    Constant
hi def link blkBoolean      Boolean
hi def link blkConstant     Constant
hi def link blkType         Type
hi def link blkPointer      Type
hi def link blkBuiltin      Function
hi def link blkAttribute    PreProc
hi def link blkNumber       Number
hi def link blkFloat        Float
hi def link blkString       String
hi def link blkEscape       SpecialChar
hi def link blkTodo         Todo
hi def link blkLineComment  Comment
hi def link blkBlockComment Comment

let b:current_syntax = 'blk'

let &cpo = s:cpo_save
unlet s:cpo_save
