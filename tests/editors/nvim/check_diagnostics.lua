-- Run after the README's init.lua has opened a .blk buffer: waits for the
-- blk client to attach and for diagnostics, then writes one line per fact
-- to $BLK_NVIM_OUT and quits. The shell driver checks the lines.
local out = assert(io.open(os.getenv('BLK_NVIM_OUT'), 'w'))
local function emit(...) out:write(table.concat({ ... }, '\t'), '\n') end

local buf = vim.api.nvim_get_current_buf()
emit('filetype', vim.bo[buf].filetype)
local function blkClient()
  for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
    if c.name == 'blk' then return c end
  end
end
local attached = vim.wait(20000, function()
  local c = blkClient()
  return c ~= nil and c.initialized
end, 50)
local client = blkClient()
emit('attached', tostring(attached and client ~= nil))
if client then
  emit('hoverProvider', tostring(client.server_capabilities.hoverProvider == true))
end
vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
  -- lnum/col are 0-based.
  emit('diagnostic', d.lnum, d.col, d.severity, d.source or '', code, d.message)
end
out:close()
if client then
  client.stop()
  vim.wait(5000, function() return client.is_stopped() end, 50)
end
vim.cmd('qa!')
