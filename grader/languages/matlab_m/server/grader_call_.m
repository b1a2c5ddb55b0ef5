function reply = grader_call_(grader_name__, grader_nout__, grader_watch__, grader_args__, grader_tag__)
% One graded call: outputs, captured printing, the error (if any) and tripwire findings,
% signed by the tripwire for this case's tag (nonce:index).
  grader_outs__ = cell(1, grader_nout__);
  grader_err__ = [];
  grader_trip_('start', grader_watch__);
  grader_printed__ = evalc(['try, [grader_outs__{1:grader_nout__}] = feval(grader_name__, grader_args__{:}); ', ...
                            'catch grader_e__, grader_err__ = grader_e__; end']);
  [hits, sig] = grader_trip_('stop', grader_tag__);
  if numel(grader_printed__) > 32000
    grader_printed__ = [grader_printed__(1:32000) sprintf('\n[output truncated]')];
  end
  head = sprintf('"out":"%s","hits":[%s],"sig":"%s"', grader_hex_(grader_printed__), hits, sig);
  if isempty(grader_err__)
    vals = cell(1, grader_nout__);
    for k = 1:grader_nout__
      vals{k} = grader_encode_(grader_outs__{k});
    end
    reply = sprintf('{"ok":true,%s,"v":[%s]}', head, grader_join_(vals));
  else
    reply = sprintf('{"ok":false,%s,"e":%s}', head, grader_error_(grader_err__));
  end
end

function text = grader_error_(err)
  frames = cell(1, numel(err.stack));
  here = [pwd() filesep()];
  for k = 1:numel(err.stack)
    s = err.stack(k);
    file = s.file;
    if strncmp(file, here, numel(here))
      file = file(numel(here) + 1:end);   % the student's own file: a relative name
    end
    frames{k} = sprintf('{"f":"%s","n":"%s","l":%d}', grader_hex_(file), grader_hex_(s.name), s.line);
  end
  text = sprintf('{"id":"%s","m":"%s","s":[%s]}', grader_hex_(err.identifier), grader_hex_(err.message), grader_join_(frames));
end
