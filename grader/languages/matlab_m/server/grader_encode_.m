function text = grader_encode_(v)
% A MATLAB value as tagged text: class, size and data (column-major), nothing lost.
  z = sprintf('%d,', size(v));
  z = ['[' z(1:end-1) ']'];
  c = class(v);
  if ischar(v)
    text = sprintf('{"c":"char","z":%s,"d":"%s"}', z, grader_hex_(v(:)'));
  elseif islogical(v)
    text = sprintf('{"c":"logical","z":%s,"d":"%s"}', z, sprintf('%d', v(:)));
  elseif isnumeric(v) && ~isreal(v)
    text = sprintf('{"c":"unsupported","k":"%s"}', grader_hex_(['complex ' c]));
  elseif isnumeric(v)
    if issparse(v)
      v = full(v);
    end
    if isinteger(v)
      d = sprintf('%d,', v(:));
    elseif isa(v, 'single')
      d = sprintf('%.9g,', v(:));
    else
      d = sprintf('%.17g,', v(:));
    end
    text = sprintf('{"c":"%s","z":%s,"d":"%s"}', c, z, d(1:end-1));
  elseif iscell(v)
    items = cell(1, numel(v));
    for k = 1:numel(v)
      items{k} = grader_encode_(v{k});
    end
    text = sprintf('{"c":"cell","z":%s,"d":[%s]}', z, grader_join_(items));
  elseif isstruct(v)
    f = __fieldnames__(v);   % fieldnames is an .m file, which a student's file could replace
    items = cell(1, numel(v) * numel(f));
    n = 0;
    for k = 1:numel(v)
      for j = 1:numel(f)
        n = n + 1;
        items{n} = grader_encode_(v(k).(f{j}));
      end
    end
    names = cellfun(@(s) ['"' grader_hex_(s) '"'], f', 'UniformOutput', false);
    text = sprintf('{"c":"struct","z":%s,"f":[%s],"d":[%s]}', z, grader_join_(names), grader_join_(items));
  else
    text = sprintf('{"c":"unsupported","k":"%s"}', grader_hex_(c));
  end
end
