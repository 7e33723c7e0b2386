" blk kernel sources
autocmd BufRead,BufNewFile *.blk setfiletype blk
