-- The headless Neovim test of `tofulint --langserver` (scripts/langserver).
-- Neovim's own LSP client opens main.tf, waits for the diagnostics, applies
-- the preferred code action (the fix) and the ignore action, and checks
-- the buffer and the diagnostics after each. Runs with Neovim 0.7 and
-- later; exits 0 when every check passed, 1 otherwise.
local tofulint = os.getenv('TOFULINT')
local dir = vim.fn.getcwd()
local failed = false

local function check(ok, what)
  if ok then
    print('ok   ' .. what)
  else
    print('FAIL ' .. what)
    failed = true
  end
end

local function finish()
  io.stdout:write('\n')
  vim.cmd(failed and 'cquit 1' or 'qall!')
end

local function main()
  vim.cmd('edit ' .. dir .. '/main.tf')
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = 'tofulint', cmd = { tofulint, '--langserver' }, root_dir = dir })
  check(id ~= nil, 'the client started the server')
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)

  local function code(d)
    return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  end
  local function wait_codes(want, what)
    local ok = vim.wait(10000, function()
      local ds = vim.diagnostic.get(buf)
      if #ds ~= #want then return false end
      for i, d in ipairs(ds) do
        if code(d) ~= want[i] then return false end
      end
      return true
    end, 20)
    check(ok, what)
    return vim.diagnostic.get(buf)
  end

  local ds = wait_codes({ 'deprecated_interpolation' }, 'a diagnostic with the rule as its code')
  if #ds ~= 1 then return end
  -- The finding follows an emoji: the server counts its column in UTF-16
  -- code units (16), which Neovim turns into bytes (19).
  check(ds[1].lnum == 5 and ds[1].col == 19, 'its position, in UTF-16 as Neovim reads it (got ' .. ds[1].lnum .. ':' .. ds[1].col .. ')')

  local function actions_at(d)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.lnum, character = d.col } },
      context = { diagnostics = {} },
    }
    local res = client.request_sync('textDocument/codeAction', params, 5000, buf)
    return res and res.result or {}
  end
  local function apply(action)
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
  end

  local actions = actions_at(ds[1])
  check(#actions == 2 and actions[1].isPreferred, 'two quick fixes, the fix preferred')
  if #actions ~= 2 then return end
  apply(actions[1])
  local line = vim.api.nvim_buf_get_lines(buf, 5, 6, false)[1]
  check(line == '  value = ["😀", var.name]', 'the fix applied to the buffer (got ' .. line .. ')')
  wait_codes({}, 'no diagnostic after the fix')

  -- An edit of the buffer, unsaved, brings a finding back; the ignore
  -- action silences it.
  vim.api.nvim_buf_set_lines(buf, 5, 6, false, { '  value = "${var.name}"' })
  ds = wait_codes({ 'deprecated_interpolation' }, 'the finding of an unsaved edit')
  if #ds ~= 1 then return end
  actions = actions_at(ds[1])
  check(#actions == 2, 'two quick fixes again')
  if #actions ~= 2 then return end
  apply(actions[2])
  check(vim.api.nvim_buf_get_lines(buf, 5, 6, false)[1] == '  # tofulint-ignore: deprecated_interpolation', 'the ignore comment inserted above the line')
  wait_codes({}, 'no diagnostic after the ignore comment')

  client.stop()
  check(vim.wait(5000, function() return client.is_stopped() end, 20), 'the server stopped at shutdown and exit')
end

local ok, err = pcall(main)
if not ok then
  check(false, 'the test ran: ' .. tostring(err))
end
finish()
