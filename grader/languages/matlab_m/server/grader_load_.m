function reply = grader_load_(names)
% Parse each named function file now, so a syntax error is reported at load, per function.
  names = names(~cellfun(@isempty, names));
  parts = cell(1, numel(names));
  for k = 1:numel(names)
    try
      nargin(names{k});
      parts{k} = sprintf('{"n":"%s","ok":true,"o":%d}', grader_hex_(names{k}), nargout(names{k}));
    catch err
      parts{k} = sprintf('{"n":"%s","ok":false,"m":"%s"}', grader_hex_(names{k}), grader_hex_(err.message));
    end
  end
  reply = ['{"load":[' grader_join_(parts) ']}'];
end
